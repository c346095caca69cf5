// Every turn a Memory(backend="neo4j") starts from, in conversation order.
MATCH (t:Turn)
RETURN t.conversation AS conversation, t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date,
       t.number AS turn
ORDER BY t.conversation, t.position
