// The k best of the scored candidates (the last part of every search): the named conversations'
// turns first, then the rest; ties in writing order.
WHERE score > 0
WITH t, score, t.conversation IN named AS inside
ORDER BY inside DESC, score DESC, t.conversation, t.position
LIMIT $q.k
RETURN t.key AS key, t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.number AS turn, t.user AS user,
       t.conversation AS conversation, t.metadata AS metadata, score
