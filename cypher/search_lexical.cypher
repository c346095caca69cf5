// A lexical search's candidates (after search_parts.cypher): the `$limit` turns Lucene proposes
// for each of `lucenes`, once each; searching one conversation, only its turns (Lucene's scope is
// a phrase of the id's words, which the id of another conversation may hold too: "a b" in "x a b y"),
// and only the asking user's (the owner token in Lucene's scope is a word of that field, which a
// conversation id holding a space and another user's token would hold too); only the turns whose
// metadata a filter selects (`$q.tags`: per name, the tokens of its values, any of which the turn holds;
// Lucene keeps to them first, search_parts.cypher); and asked as of a moment, only the turns said by
// the end of its day (`$q.until`: graphmem.index.query.said_until; an undated turn is kept: it has no
// moment to be after).
UNWIND lucenes AS lucene
CALL db.index.fulltext.queryNodes('turn_terms', lucene, {limit: $q.limit}) YIELD node
WITH DISTINCT node AS t, avg, named, asker, groups, dates, typed
WHERE t.owner = $q.owner AND ($q.conversation IS NULL OR t.conversation = $q.conversation)
  AND ($q.until IS NULL OR t.date IS NULL OR t.date <= $q.until)
  AND all(g IN $q.tags WHERE any(x IN g WHERE x IN coalesce(t.tags, [])))
