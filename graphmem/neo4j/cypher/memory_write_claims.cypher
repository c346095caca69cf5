// The last statement of an ingest, per conversation: the assertions of turns read again are
// removed (`forget`), the claims of the new and changed turns written (each an Assertion about
// its subject, mentioning the others, read from its turn), and the conversation's counters
// moved: turns indexed, their total BM25 length, its speakers (the person scope reads them), and
// how many of its turns are an asker's (graphmem.memory.askers: a person's, when an assistant speaks).
CALL () {
  UNWIND $forget AS key
  MATCH (a:Assertion)-[:READ_FROM]->(:Turn {key: key})
  DETACH DELETE a
}
CALL () {
  UNWIND $rows AS row
  MATCH (t:Turn {key: row.turn})
  MERGE (p:Person {key: row.subject_key})
    ON CREATE SET p.id = row.subject, p.conversation = row.conversation, p.name = row.subject_name,
                  p.speaker = row.subject_speaks, p.n = -1
  MERGE (a:Assertion {key: row.key})
  SET a.n = row.key, a.conversation = row.conversation, a.subject = row.subject, a.predicate = row.predicate,
      a.object = row.object, a.negated = row.negated, a.topic = row.topic, a.sentence = row.sentence,
      a.dia_id = row.dia_id, a.date = row.date, a.derived = false
  MERGE (p)-[:SUBJECT_OF]->(a)
  MERGE (a)-[:READ_FROM]->(t)
  WITH a, row
  UNWIND row.mentions AS m
  MERGE (q:Person {key: m.key})
    ON CREATE SET q.id = m.id, q.conversation = row.conversation, q.name = m.name, q.speaker = m.speaks, q.n = -1
  MERGE (a)-[:MENTIONS]->(q)
}
MATCH (c:Conversation {id: $conversation})
SET c.indexed = c.indexed + $added, c.length = c.length + $length, c.speakers = $speakers, c.lspeakers = $lspeakers,
    c.askers = $askers
