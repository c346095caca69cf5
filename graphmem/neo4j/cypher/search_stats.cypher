// What a search (or the reader) needs before it ranks, in one round trip:
// - n, total: how many turns are indexed and their total BM25 length (N and the average length);
// - dfs: each stem's document frequencies, from its Term node (BM25's, the reader's);
// - counted: what Term nodes cannot give, counted by Lucene: a query group of several stems that
//   is no irregular family (turns holding any; null bounds count every hit), the turns speaking of
//   a span that overlaps `lo`..`hi` (day ordinals) but not said then (`spans_only`: a day query,
//   whose said-that-day count is a Term's), or, for any other run of days, the turns said in it
//   or speaking of it;
// - named: the conversations of every speaker the query names (the person scope), when `scope`;
// - rarest: the smallest document frequency any stem has (the reader's weight for an unseen one).
CALL () {
  MATCH (c:Conversation)
  RETURN sum(coalesce(c.indexed, 0)) AS n, sum(coalesce(c.length, 0.0)) AS total
}
CALL () {
  UNWIND $stems AS s
  OPTIONAL MATCH (x:Term {stem: s})
  RETURN collect([s, coalesce(x.df, 0), coalesce(x.vdf, 0)]) AS dfs
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
  WHERE $scope AND any(w IN coalesce(c.lspeakers, []) WHERE w IN $words)
  RETURN collect(c.id) AS named
}
CALL () {
  MATCH (x:Term) WHERE x.vdf > 0
  RETURN x.vdf AS rarest ORDER BY x.vdf LIMIT 1
}
RETURN n, total, dfs, counted, named, rarest
