// A search, whole, in one round trip: the statistics, the idf of each query part, the candidates
// Lucene proposes and their BM25F ranking (graphmem.memory.postings' arithmetic, operation for
// operation), returning only the k best turns.
// Statistics: n and the total BM25 length off the Conversation
// nodes; each token's document frequency off its Term node; what no Term holds (a group of
// several stems that is no irregular family, a day's span-only turns, any other run of days)
// counted by Lucene (`$counts`); the person scope, the conversations whose speakers the query
// names, when `$scope`.
// Each part's document frequency is the sum of its `ways`: {df: token} a Term's, {count: i} the
// i-th count. A word group keeps only its known stems (df > 0) and is kept once per set of them.
// Lucene then proposes `$limit` turns in each scope (everywhere, and again within the named
// conversations; or only `$conversation`), each clause boosted by its part's idf (scaled by 10^4
// and rounded, as Lucene's boost syntax takes no exponent: the same ratios, so the same order).
// Each candidate is scored: per group, tf = its stems' count in the turn's own field plus `$w`
// times their count in the reply field, idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg));
// plus each date's idf for a turn said then or speaking of it; plus the answer type's idf for a
// turn that gives one. The named conversations' turns come first, then the rest; ties in writing order.
CALL () {
  MATCH (c:Conversation)
  RETURN sum(coalesce(c.indexed, 0)) AS n, sum(coalesce(c.length, 0.0)) AS total
}
CALL () {
  UNWIND $stems AS s
  OPTIONAL MATCH (x:Term {stem: s})
  RETURN collect([s, coalesce(x.df, 0)]) AS dfs
}
CALL () {
  UNWIND range(0, size($counts) - 1) AS i
  WITH i, $counts[i] AS q
  CALL (q) {
    CALL db.index.fulltext.queryNodes('turn_terms', q.lucene) YIELD node AS t
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
  MATCH (c:Conversation)
  WHERE $scope AND $conversation IS NULL AND any(w IN coalesce(c.lspeakers, []) WHERE w IN $words)
  RETURN collect(c.id) AS named
}
WITH n, total, named, counted, dfs WHERE n > 0
WITH n, total, named,
     [g IN $groups | {stems: [s IN g.stems WHERE coalesce(head([p IN dfs WHERE p[0] = s | p[1]]), 0) > 0],
                      df: reduce(d = 0, way IN g.ways | d + CASE WHEN way.count IS NULL
                            THEN coalesce(head([p IN dfs WHERE p[0] = way.df | p[1]]), 0) ELSE counted[way.count] END)}] AS raw,
     [d IN $dates | {lo: d.lo, hi: d.hi, months: d.months,
                     df: reduce(x = 0, way IN d.ways | x + CASE WHEN way.count IS NULL
                           THEN coalesce(head([p IN dfs WHERE p[0] = way.df | p[1]]), 0) ELSE counted[way.count] END)}] AS spans,
     CASE WHEN $mark IS NULL THEN 0 ELSE coalesce(head([p IN dfs WHERE p[0] = $mark.token | p[1]]), 0) END AS mdf
WITH n, total, named,
     [i IN range(0, size(raw) - 1) WHERE size(raw[i].stems) > 0
        AND NOT any(j IN range(0, i - 1) WHERE size(raw[j].stems) = size(raw[i].stems)
                    AND all(x IN raw[j].stems WHERE x IN raw[i].stems))
      | {stems: raw[i].stems, idf: log(1.0 + (n - raw[i].df + 0.5) / (raw[i].df + 0.5))}] AS groups,
     [d IN spans | {lo: d.lo, hi: d.hi, months: d.months, idf: log(1.0 + (n - d.df + 0.5) / (d.df + 0.5))}] AS dates,
     CASE WHEN mdf > 0 THEN {type: $mark.type, phrase: $mark.phrase, idf: log(1.0 + (n - mdf + 0.5) / (mdf + 0.5))}
          ELSE null END AS typed
WITH n, total, named, groups, dates, typed,
     reduce(s = '', g IN groups | reduce(q = s, x IN g.stems |
        q + ' terms:' + x + '^' + toString(toInteger(round(g.idf * 10000)))
          + ' context:' + x + '^' + toString(toInteger(round(g.idf * $w * 10000)))))
     + reduce(s = '', d IN dates | reduce(q = s, m IN d.months |
        q + ' marks:mon_' + m + '^' + toString(toInteger(round(d.idf * 10000)))
          + ' marks:smon_' + m + '^' + toString(toInteger(round(d.idf * 10000)))))
     + CASE WHEN typed IS NULL THEN ''
            ELSE ' marks:' + typed.phrase + '^' + toString(toInteger(round(typed.idf * 10000))) END AS body
WHERE body <> ''
UNWIND CASE WHEN $conversation IS NOT NULL THEN [[$conversation]]
            WHEN size(named) > 0 THEN [[], named] ELSE [[]] END AS scope
WITH total / n AS avg, named, groups, dates, typed,
     CASE WHEN size(scope) = 0 THEN body
          ELSE '+scope:(' + reduce(s = '', c IN scope | s + ' "' + replace(replace(c, '\\', '\\\\'), '"', '\\"') + '"')
               + ') +(' + body + ')' END AS lucene
CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $limit}) YIELD node
WITH DISTINCT node AS t, CASE WHEN avg > 0 THEN avg ELSE 1.0 END AS avg, named, groups, dates, typed
WITH t, named, groups, dates, typed, split(coalesce(t.terms, ''), ' ') AS own, split(coalesce(t.context, ''), ' ') AS ctx,
     $k1 * (1.0 - $b + $b * t.length / avg) AS norm
WITH t, named, dates, typed, norm, groups, [g IN groups | reduce(tf = 0.0, s IN g.stems |
        tf + size([x IN own WHERE x = s]) * 1.0 + size([x IN ctx WHERE x = s]) * $w)] AS tfs
WITH t, named, dates, typed, reduce(score = 0.0, i IN range(0, size(tfs) - 1) |
        score + CASE WHEN tfs[i] > 0 THEN groups[i].idf * tfs[i] * ($k1 + 1.0) / (tfs[i] + norm) ELSE 0.0 END) AS words
WITH t, named, typed, reduce(score = words, d IN dates |
        score + CASE WHEN (t.day >= d.lo AND t.day <= d.hi)
                       OR any(j IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[j] <= d.hi AND d.lo <= t.span_hi[j])
                     THEN d.idf ELSE 0.0 END) AS dated
WITH t, named, dated + CASE WHEN typed IS NOT NULL AND typed.type IN coalesce(t.types, []) THEN typed.idf ELSE 0.0 END AS score
WHERE score > 0
WITH t, score, t.conversation IN named AS inside
ORDER BY inside DESC, score DESC, t.conversation, t.position
LIMIT $k
RETURN t.key AS key, t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.number AS number,
       t.conversation AS conversation, score
