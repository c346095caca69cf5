UNWIND $rows AS row
MATCH (s:Session {key: row.from})
MATCH (t:Turn {key: row.to})
MERGE (s)-[:HAS_TURN]->(t)
