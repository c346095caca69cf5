// Every turn of one user (`$owner`) held (of one conversation when `$conversation` is given): conversation by
// conversation in the order of their ids, each in the order its turns were written.
MATCH (c:Conversation)
WHERE ($conversation IS NULL OR c.id = $conversation) AND coalesce(c.owner, '~none') = $owner
MATCH (t:Turn {conversation: c.id})
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn, t.user AS user
ORDER BY c.id, t.position
