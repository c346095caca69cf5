// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// New turns, their sessions and who spoke them: every turn of the memory, ingested or loaded, is
// written by this statement. The caller holds the conversation's lock and has checked the keys
// are new. A session is a sitting: a dataset's own (LoCoMo's), or one per calendar day. A turn's metadata is
// kept as one JSON string (`metadata`: a property cannot hold a map; null when it has none) and, for a
// search's filter, as its tokens (`tags`, graphmem.data.metadata.token), which its `scope` field holds too.
// Dates travel as ISO 8601 text and are stored as local date-times (graphmem.store.neo4j.rows.iso).
UNWIND $p.rows AS row
MATCH (c:Conversation {id: row.conversation})
MERGE (s:Session {key: row.session_key})
  ON CREATE SET s.conversation = row.conversation, s.index = row.session, s.date = localdatetime(row.session_date),
                s.date_text = row.date_text, s.day = row.day
MERGE (c)-[:HAS_SESSION]->(s)
MERGE (t:Turn {key: row.key})
SET t.id = row.id, t.conversation = row.conversation, t.session = row.session, t.position = row.position,
    t.speaker = row.speaker, t.text = row.text, t.date = localdatetime(row.date), t.number = row.number, t.caption = row.caption,
    t.user = row.user, t.owner = row.owner, t.metadata = row.metadata, t.tags = row.tags
MERGE (s)-[:HAS_TURN]->(t)
MERGE (p:Person {key: row.person})
  ON CREATE SET p.id = row.person_id, p.conversation = row.conversation, p.name = row.speaker, p.n = -1
SET p.speaker = true, p.human = true, p.lname = row.lname, p.owner = row.owner
MERGE (p)-[:SPOKE]->(t)
