// The turns the database holds under any of these keys (a memory's duplicate check before a write).
UNWIND $keys AS key
MATCH (t:Turn {key: key})
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn, t.user AS user
