// A lexical search's candidates (after search_parts.cypher): the `$limit` turns Lucene proposes
// for each of `lucenes`, once each.
UNWIND lucenes AS lucene
CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $q.limit}) YIELD node
WITH DISTINCT node AS t, avg, named, asker, groups, dates, typed
