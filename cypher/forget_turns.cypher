// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Forgetting (graphmem.store.neo4j.store): the conversations that lose turns are taken out whole, then the
// turns they keep are written again, so everything read from the forgotten turns goes and the rest
// reads as it would had they never been written. Here: each turn gives back the document frequencies
// it counted in; the conversations' turns, sessions, assertions and people go; the forgotten turns'
// sentences go (the kept turns keep theirs: a sentence's vector never changes); the counters start
// again, and a conversation with nothing left goes too, as do the terms no turn holds any more.
UNWIND $p.conversations AS conv
CALL (conv) {
  MATCH (t:Turn {conversation: conv})
  WHERE t.bag IS NOT NULL
  UNWIND [x IN t.bag | [x, 1, 0]] + [x IN coalesce(t.own, []) | [x, 0, 1]] AS m
  WITH t.owner AS owner, m[0] AS stem, sum(m[1]) AS df, sum(m[2]) AS vdf
  ORDER BY owner, stem
  MATCH (x:Term {owner: owner, stem: stem})
  SET x.df = x.df - df, x.vdf = x.vdf - vdf
  WITH x WHERE x.df = 0 AND x.vdf = 0
  DELETE x
}
CALL (conv) {
  MATCH (a:Assertion {conversation: conv})
  DETACH DELETE a
}
CALL (conv) {
  MATCH (p:Person {conversation: conv})
  DETACH DELETE p
}
CALL (conv) {
  MATCH (t:Turn {conversation: conv})
  DETACH DELETE t
}
CALL (conv) {
  MATCH (s:Session {conversation: conv})
  DETACH DELETE s
}
CALL (conv) {
  UNWIND $p.keys AS key
  MATCH (s:Sentence {turn: key})
  DETACH DELETE s
}
MATCH (c:Conversation {id: conv})
WITH c, conv, conv IN $p.emptied AS emptied
SET c.indexed = 0, c.length = 0.0, c.speakers = [], c.lspeakers = [], c.askers = 0, c.refused = null,
    c.epoch = $p.epoch
REMOVE c.reading
WITH c WHERE emptied
DETACH DELETE c
