UNWIND $rows AS row
MATCH (c:Conversation {id: row.from})
MATCH (s:Session {key: row.to})
MERGE (c)-[:HAS_SESSION]->(s)
