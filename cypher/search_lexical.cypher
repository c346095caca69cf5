// A lexical search's candidates (after search_parts.cypher): the `$limit` turns Lucene proposes
// for each of `lucenes`, once each; searching one conversation, only its turns (Lucene's scope is
// a phrase of the id's words, which the id of another conversation may hold too: "a b" in "x a b y").
UNWIND lucenes AS lucene
CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $q.limit}) YIELD node
WITH DISTINCT node AS t, avg, named, asker, groups, dates, typed
WHERE $q.conversation IS NULL OR t.conversation = $q.conversation
