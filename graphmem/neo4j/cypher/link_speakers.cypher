UNWIND $rows AS row
MATCH (p:Person {key: row.from})
MATCH (t:Turn {key: row.to})
MERGE (p)-[:SPOKE]->(t)
