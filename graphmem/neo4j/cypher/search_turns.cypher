// A search's candidates: the turns Lucene ranks first for the query's stems, with what the
// memory re-scores them by (its own BM25F, from the statistics search_stats reads); their words
// are fetched for the few returned (search_fetch).
CALL db.index.fulltext.queryNodes('turn_terms', $lucene, {limit: $limit}) YIELD node AS t
RETURN t.key AS key, t.conversation AS conversation, t.position AS position, t.terms AS terms,
       t.context AS context, t.length AS length, t.day AS day, t.span_lo AS span_lo, t.span_hi AS span_hi,
       t.types AS types
