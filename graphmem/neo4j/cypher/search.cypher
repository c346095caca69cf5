// One search, one round trip: everything the memory's BM25F needs to rank the turns Lucene
// proposes, which it then does itself (graphmem.memory.graphdb_search):
// - n, total: how many turns are indexed and their total BM25 length (N and the average length);
// - dfs: each query stem's document frequencies, from its Term node;
// - counted: document frequencies Term nodes cannot give, counted by Lucene: a query group of
//   several stems (turns holding any), or a date (turns said in `lo`..`hi`, in day ordinals, or
//   speaking of a span that overlaps it; null bounds count every hit);
// - named: the conversations of every speaker the query names (the person scope), when `scope`;
// - candidates: the `limit` turns Lucene ranks first for `body`, over all conversations (or only
//   `conversation`), and again within the named conversations, with their search fields and words.
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
    WITH t WHERE q.lo IS NULL
      OR (t.day >= q.lo AND t.day <= q.hi)
      OR any(j IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[j] <= q.hi AND q.lo <= t.span_hi[j])
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
CALL (named) {
  UNWIND CASE WHEN $conversation IS NOT NULL THEN [[$conversation]]
              WHEN size(named) > 0 THEN [[], named] ELSE [[]] END AS scope
  WITH CASE WHEN size(scope) = 0 THEN $body
            ELSE '+scope:(' + reduce(s = '', c IN scope | s + ' "' + replace(replace(c, '\\', '\\\\'), '"', '\\"') + '"')
                 + ') +(' + $body + ')' END AS lucene
  CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $limit}) YIELD node AS t
  RETURN collect(DISTINCT t {.key, .conversation, .position, .terms, .context, .length, .day, .span_lo, .span_hi,
                             .types, .id, .speaker, .text, .date, .number}) AS candidates
}
RETURN n, total, dfs, counted, named, candidates
