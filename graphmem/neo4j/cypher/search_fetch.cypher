// The turns a search returns, by key, in the order given.
UNWIND $keys AS key
MATCH (t:Turn {key: key})
RETURN t.key AS key, t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.number AS turn,
       t.conversation AS conversation
