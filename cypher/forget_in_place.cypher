// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// Forgetting some turns of a conversation in place (graphmem.store.neo4j.forget), after the kept
// turns whose search fields changed were written again (index_turns.cypher) and before the claims
// of the kept turns whose claims changed are (write_claims.cypher): the forgotten turns give back
// the document frequencies they counted in, and a term no turn holds any more goes (`lost`: the
// stems the kept turns written again no longer hold, none of the forgotten turns' own); the
// assertions of the forgotten turns and of the kept turns read again go, as do the forgotten
// turns' sentences, the turns themselves and a session left with no turn; the kept turns after the
// first forgotten one move up by the forgotten turns before them (`places`: the forgotten turns'
// positions, sorted; worked out here rather than sent as a row a turn); the people no kept turn
// names or speaks go (`keep`: those the conversation's reading still holds), those who no longer
// speak stop being speakers (`stopped`); the conversation's counters are set.
CALL () {
  UNWIND $p.keys AS key
  MATCH (t:Turn {key: key})
  WHERE t.bag IS NOT NULL
  UNWIND [x IN t.bag | [x, 1, 0]] + [x IN coalesce(t.own, []) | [x, 0, 1]] AS m
  WITH t.owner AS owner, m[0] AS stem, sum(m[1]) AS df, sum(m[2]) AS vdf
  ORDER BY owner, stem
  MATCH (x:Term {owner: owner, stem: stem})
  SET x.df = x.df - df, x.vdf = x.vdf - vdf
  WITH x WHERE x.df = 0 AND x.vdf = 0
  DELETE x
}
CALL () {
  UNWIND $p.lost AS stem
  MATCH (x:Term {owner: $p.owner, stem: stem})
  WHERE x.df = 0 AND x.vdf = 0
  DELETE x
}
CALL () {
  UNWIND $p.keys + $p.forget AS key
  MATCH (a:Assertion)-[:READ_FROM]->(:Turn {key: key})
  DETACH DELETE a
}
CALL () {
  UNWIND $p.keys AS key
  MATCH (s:Sentence {turn: key})
  DETACH DELETE s
}
CALL () {
  UNWIND $p.keys AS key
  MATCH (t:Turn {key: key})
  DETACH DELETE t
}
CALL () {
  MATCH (s:Session {conversation: $p.conversation})
  WHERE NOT EXISTS { (s)-[:HAS_TURN]->() }
  DETACH DELETE s
}
CALL () {
  MATCH (t:Turn {conversation: $p.conversation})
  WHERE t.position > $p.places[0]
  SET t.position = t.position - size([p IN $p.places WHERE p < t.position])
}
CALL () {
  MATCH (p:Person {conversation: $p.conversation})
  WHERE NOT p.id IN $p.keep
  DETACH DELETE p
}
CALL () {
  UNWIND $p.stopped AS key
  MATCH (p:Person {key: key})
  SET p.speaker = false
}
MATCH (c:Conversation {id: $p.conversation})
SET c.indexed = $p.indexed, c.length = $p.length, c.speakers = $p.speakers, c.lspeakers = $p.lspeakers, c.askers = $p.askers,
    c.refused = null, c.epoch = $p.epoch
REMOVE c.reading
