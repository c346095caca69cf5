// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// The last statement of a write, per conversation: the assertions of turns read again are removed
// (`forget`), the people named written (a load's rows, `fixed`, set their name and order; the
// memory's only create them; every row sets `human`: a person, not a named animal or thing,
// graphmem.claims.naming), the claims written (each an Assertion about its subject, read from
// its turn, mentioning the others), and the conversation's counters moved: turns indexed, their
// total BM25 length, its speakers (the person scope reads them), how many of its turns are an
// asker's (graphmem.index.askers). Any write changes the conversation, so a load's stamp goes.
CALL () {
  UNWIND $p.forget AS key
  MATCH (a:Assertion)-[:READ_FROM]->(:Turn {key: key})
  DETACH DELETE a
}
CALL () {
  UNWIND $p.people AS row
  MERGE (p:Person {key: row.key})
    ON CREATE SET p.id = row.id, p.conversation = row.conversation, p.name = row.name, p.speaker = row.speaker,
                  p.n = row.n, p.owner = $p.owner
  SET p.human = row.human
  FOREACH (_ IN CASE WHEN row.fixed THEN [1] ELSE [] END |
    SET p.id = row.id, p.name = row.name, p.speaker = row.speaker, p.n = row.n)
}
CALL () {
  UNWIND $p.claims AS row
  MERGE (a:Assertion {key: row.key})
  SET a.n = row.n, a.seq = row.seq, a.conversation = row.conversation, a.subject = row.subject,
      a.predicate = row.predicate, a.object = row.object, a.negated = row.negated, a.topic = row.topic,
      a.sentence = row.sentence, a.dia_id = row.dia_id, a.date = localdatetime(row.date), a.derived = row.derived,
      a.speaker = row.speaker, a.mentions = row.mentions
  WITH a, row
  CALL (a, row) {
    UNWIND row.subjects AS key
    MATCH (p:Person {key: key})
    MERGE (p)-[:SUBJECT_OF]->(a)
  }
  CALL (a, row) {
    UNWIND row.turns AS key
    MATCH (t:Turn {key: key})
    MERGE (a)-[:READ_FROM]->(t)
  }
  CALL (a, row) {
    UNWIND row.mention_keys AS key
    MATCH (q:Person {key: key})
    MERGE (a)-[:MENTIONS]->(q)
  }
}
MATCH (c:Conversation {id: $p.conversation})
SET c.indexed = c.indexed + $p.added, c.length = c.length + $p.length, c.speakers = $p.speakers, c.lspeakers = $p.lspeakers,
    c.askers = $p.askers
REMOVE c.reading
