// The turn an assertion was read from (the mirror's `from` edge).
UNWIND $rows AS row
MATCH (a:Assertion {key: row.from})
MATCH (t:Turn {key: row.to})
MERGE (a)-[:READ_FROM]->(t)
