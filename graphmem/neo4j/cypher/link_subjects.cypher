// The person an assertion is about (the mirror's `about` edge).
UNWIND $rows AS row
MATCH (p:Person {key: row.from})
MATCH (a:Assertion {key: row.to})
MERGE (p)-[:SUBJECT_OF]->(a)
