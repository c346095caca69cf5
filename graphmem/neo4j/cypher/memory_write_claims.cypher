// The claims read from a memory conversation's turns: each an Assertion about its subject,
// mentioning the others, read from its turn.
UNWIND $rows AS row
MATCH (t:Turn {key: row.turn})
MERGE (p:Person {key: row.subject_key})
  ON CREATE SET p.id = row.subject, p.conversation = row.conversation, p.name = row.subject_name, p.speaker = row.subject_speaks, p.n = -1
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
