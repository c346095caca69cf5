// Every other person an assertion names (the mirror's `mentions` edge).
UNWIND $rows AS row
MATCH (a:Assertion {key: row.from})
MATCH (p:Person {key: row.to})
MERGE (a)-[:MENTIONS]->(p)
