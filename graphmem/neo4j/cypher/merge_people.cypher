UNWIND $rows AS row
MERGE (p:Person {key: row.key})
SET p.id = row.id,
    p.conversation = row.conversation,
    p.name = row.name,
    p.speaker = row.speaker,
    p.n = row.n
