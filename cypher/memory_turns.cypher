// Every turn held (of one conversation when `$conversation` is given), in the order written:
// conversation by conversation in the order they were started, each in position order.
MATCH (c:Conversation)
WHERE $conversation IS NULL OR c.id = $conversation
MATCH (t:Turn {conversation: c.id})
RETURN t.id AS id, t.speaker AS speaker, t.text AS text, t.date AS date, t.conversation AS conversation,
       t.number AS turn
ORDER BY elementId(c), t.position
