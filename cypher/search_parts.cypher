// Every value a search takes travels in ONE map parameter, `$q`: Neo4j caches a plan per statement
// and per the types of its parameters (a list of maps is not an empty list, a map not a null) and,
// for a list or a string, per its size's bucket (0, 1, up to 10, up to 100, ...), so separate
// parameters would plan the same statement again for each shape of query, a second each on a cold
// server; one map has one type and no size, and so one plan.
// Every Lucene query keeps to the asking user's turns (`+scope:"<owner>"^0`: a filter that scores nothing;
// graphmem.store.users.owner), as the person scope keeps to the user's Person nodes, and, under a metadata
// filter, to the turns holding one of each name's tokens (`$q.tags`, graphmem.data.metadata.token): so
// Lucene proposes only turns the filter selects. The statistics are the user's own, as in the embedded
// stores (each user's index): the user's Conversation nodes, the user's Term nodes, Lucene's counts and the
// asker's turns of the user's turns alone.
// The first part of every search, one statement in several files (graphmem.store.neo4j.search
// names them; one round trip): the statistics, each query part's idf and Lucene's queries.
// Statistics: n and the total BM25 length off the Conversation nodes; each token's document
// frequency off its Term node; what no Term holds (a group of several stems that is no irregular
// family, a day's span-only turns, any other run of days) counted by Lucene (`$counts`); the
// person scope, when `$scope`: the conversations of the Person nodes that spoke and whose name (`lname`,
// graphmem.index.people.speaker_key) is a word of the query, found through the index on that name.
// Each part's document frequency is the sum of its `ways`: {df: token} a Term's, {count: i} the
// i-th count. A word group keeps only its known stems (df > 0) and is kept once per set of them.
// Lucene's query boosts each clause by its part's idf (scaled by 10^4 and rounded, as Lucene's
// boost syntax takes no exponent: the same ratios, so the same order), and is asked once per scope
// (`lucenes`: everywhere, and again within the named conversations; or only `$conversation`; none
// when the query has no part Lucene can match). The asker's turns (graphmem.index.askers), when
// `$asker` (a first-person question): the conversations where an assistant speaks, each counting
// its people's turns (`askers`), and the idf of those turns over all; Lucene weighs their `#asker`
// mark by it (`lift`), only in turns its query matches otherwise (`+(...)`), as the ranking does.
CALL () {
  MATCH (c:Conversation) WHERE c.owner = $q.owner
  RETURN sum(coalesce(c.indexed, 0)) AS n, sum(coalesce(c.length, 0.0)) AS total
}
CALL () {
  UNWIND $q.stems AS s
  OPTIONAL MATCH (x:Term {owner: $q.owner, stem: s})
  RETURN collect([s, coalesce(x.df, 0)]) AS dfs
}
CALL () {
  UNWIND range(0, size($q.counts) - 1) AS i
  WITH i, $q.counts[i] AS q
  CALL (q) {
    CALL db.index.fulltext.queryNodes('turn_terms', '+scope:"' + $q.owner + '"^0 +(' + q.lucene + ')') YIELD node AS t
    WITH t, q WHERE t.owner = $q.owner
    WITH t, q, coalesce(t.day, -1) >= coalesce(q.lo, 0) AND coalesce(t.day, -1) <= coalesce(q.hi, 0) AS said
    WITH t WHERE q.lo IS NULL
      OR (said AND NOT q.spans_only)
      OR (NOT (said AND q.spans_only)
          AND any(j IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[j] <= q.hi AND q.lo <= t.span_hi[j]))
    RETURN count(t) AS df
  }
  WITH i, df ORDER BY i
  RETURN collect(df) AS counted
}
CALL () {
  MATCH (p:Person)
  WHERE $q.scope AND $q.conversation IS NULL AND p.lname IN $q.words AND p.owner = $q.owner
  RETURN collect(DISTINCT p.conversation) AS named
}
CALL () {
  MATCH (c:Conversation)
  WHERE $q.asker AND c.owner = $q.owner AND coalesce(c.askers, 0) > 0
  RETURN collect(c.id) AS assisted, sum(c.askers) AS askers
}
WITH n, total, named, counted, dfs, assisted, askers WHERE n > 0
WITH n, total, named,
     CASE WHEN askers > 0 THEN {conversations: assisted, idf: log(1.0 + (n - askers + 0.5) / (askers + 0.5))}
          ELSE null END AS asker,
     [g IN $q.groups | {stems: [s IN g.stems WHERE coalesce(head([p IN dfs WHERE p[0] = s | p[1]]), 0) > 0],
                      df: reduce(d = 0, way IN g.ways | d + CASE WHEN way.count IS NULL
                            THEN coalesce(head([p IN dfs WHERE p[0] = way.df | p[1]]), 0) ELSE counted[way.count] END)}] AS raw,
     [d IN $q.dates | {lo: d.lo, hi: d.hi, months: d.months,
                     df: reduce(x = 0, way IN d.ways | x + CASE WHEN way.count IS NULL
                           THEN coalesce(head([p IN dfs WHERE p[0] = way.df | p[1]]), 0) ELSE counted[way.count] END)}] AS spans,
     CASE WHEN $q.mark IS NULL THEN 0 ELSE coalesce(head([p IN dfs WHERE p[0] = $q.mark.token | p[1]]), 0) END AS mdf
WITH n, total, named, asker,
     [i IN range(0, size(raw) - 1) WHERE size(raw[i].stems) > 0
        AND NOT any(j IN range(0, i - 1) WHERE size(raw[j].stems) = size(raw[i].stems)
                    AND all(x IN raw[j].stems WHERE x IN raw[i].stems))
      | {stems: raw[i].stems, idf: log(1.0 + (n - raw[i].df + 0.5) / (raw[i].df + 0.5))}] AS groups,
     [d IN spans | {lo: d.lo, hi: d.hi, months: d.months, idf: log(1.0 + (n - d.df + 0.5) / (d.df + 0.5))}] AS dates,
     CASE WHEN mdf > 0 THEN {type: $q.mark.type, phrase: $q.mark.phrase, idf: log(1.0 + (n - mdf + 0.5) / (mdf + 0.5))}
          ELSE null END AS typed
WITH n, total, named, asker, groups, dates, typed,
     reduce(s = '', g IN groups | reduce(q = s, x IN g.stems |
        q + ' terms:' + x + '^' + toString(toInteger(round(g.idf * 10000)))
          + ' context:' + x + '^' + toString(toInteger(round(g.idf * $q.w * 10000)))))
     + reduce(s = '', d IN dates | reduce(q = s, m IN d.months |
        q + ' marks:mon_' + m + '^' + toString(toInteger(round(d.idf * 10000)))
          + ' marks:smon_' + m + '^' + toString(toInteger(round(d.idf * 10000)))))
     + CASE WHEN typed IS NULL THEN ''
            ELSE ' marks:' + typed.phrase + '^' + toString(toInteger(round(typed.idf * 10000))) END AS body,
     CASE WHEN asker IS NULL THEN '' ELSE ' marks:"#asker"^' + toString(toInteger(round(asker.idf * 10000))) END AS lift
WITH total / n AS avg, named, asker, groups, dates, typed,
     [scope IN CASE WHEN body = '' THEN [] WHEN $q.conversation IS NOT NULL THEN [[$q.conversation]]
                    WHEN size(named) > 0 THEN [[], named] ELSE [[]] END |
      '+scope:"' + $q.owner + '"^0 '
      + reduce(s = '', g IN $q.tags | s + '+scope:(' + reduce(x = '', tag IN g | x + ' "' + tag + '"') + ')^0 ')
      + CASE WHEN size(scope) = 0 THEN ''
             ELSE '+scope:(' + reduce(s = '', c IN scope | s + ' "' + replace(replace(c, '\\', '\\\\'), '"', '\\"') + '"')
                  + ') ' END
      + '+(' + body + ')' + lift] AS lucenes
