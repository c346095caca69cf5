// New turns of memory conversations: the turn, its session (one per calendar day) and who
// spoke it. The caller holds the conversation's lock and has checked the keys are new.
UNWIND $rows AS row
MATCH (c:Conversation {id: row.conversation})
MERGE (s:Session {key: row.session_key})
  ON CREATE SET s.conversation = row.conversation, s.index = row.session, s.date = row.date, s.date_text = row.date_text
MERGE (c)-[:HAS_SESSION]->(s)
MERGE (t:Turn {key: row.key})
SET t.id = row.id, t.conversation = row.conversation, t.session = row.session, t.position = row.position,
    t.speaker = row.speaker, t.text = row.text, t.date = row.date, t.number = row.number
MERGE (s)-[:HAS_TURN]->(t)
MERGE (p:Person {key: row.person})
  ON CREATE SET p.id = row.person_id, p.conversation = row.conversation, p.name = row.speaker, p.speaker = true, p.n = -1
MERGE (p)-[:SPOKE]->(t)
