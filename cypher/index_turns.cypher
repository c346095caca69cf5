// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The search fields of turns (what the memory's ranker reads of each: its stems without
// vocatives, the stems of the turn it replies to, its answer-type and day marks), and the
// document frequencies they move, among the turn's user's turns (its `owner`'s Term). A stem's df rises
// for a turn that gains it and falls for one that loses it (`bag`: the stems of both fields, BM25's df;
// `own`: the turn's own stems, the reader's), so writing the same fields twice changes nothing. Deltas
// are summed per user and stem and applied in that order, so concurrent writers take Term locks in one order.
UNWIND $p.rows AS row
MATCH (t:Turn {key: row.key})
WITH t, row, coalesce(t.bag, []) AS oldbag, coalesce(t.own, []) AS oldown
SET t += row.fields, t.bag = row.bag, t.own = row.own
WITH t.owner AS owner, [x IN row.bag WHERE NOT x IN oldbag | [x, 1, 0]] + [x IN oldbag WHERE NOT x IN row.bag | [x, -1, 0]]
   + [x IN row.own WHERE NOT x IN oldown | [x, 0, 1]] + [x IN oldown WHERE NOT x IN row.own | [x, 0, -1]] AS moves
UNWIND moves AS m
WITH owner, m[0] AS stem, sum(m[1]) AS df, sum(m[2]) AS vdf
ORDER BY owner, stem
MERGE (x:Term {owner: owner, stem: stem})
  ON CREATE SET x.df = 0, x.vdf = 0
SET x.df = x.df + df, x.vdf = x.vdf + vdf
RETURN count(*) AS terms
