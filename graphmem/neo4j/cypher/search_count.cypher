// Document frequencies Term nodes cannot give: a query group of several stems (turns holding
// any of them), or a date (turns said on it or speaking of a span that overlaps it, `lo`..`hi`
// in day ordinals; null bounds count every hit).
UNWIND $counts AS q
CALL (q) {
  CALL db.index.fulltext.queryNodes('turn_terms', q.lucene) YIELD node AS t
  WITH t WHERE q.lo IS NULL
    OR (t.day >= q.lo AND t.day <= q.hi)
    OR any(i IN range(0, size(coalesce(t.span_lo, [])) - 1) WHERE t.span_lo[i] <= q.hi AND q.lo <= t.span_hi[i])
  RETURN count(t) AS df
}
RETURN df
