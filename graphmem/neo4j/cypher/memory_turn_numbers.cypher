// The turn numbers memory records carry (Memory(backend="neo4j")), kept on their Turn nodes.
UNWIND $rows AS row
MATCH (t:Turn {key: row.key})
SET t.number = row.number
