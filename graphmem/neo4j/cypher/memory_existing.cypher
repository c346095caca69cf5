// Which of these turn keys (conversation/id) the database already holds: duplicates are
// judged within a conversation.
UNWIND $keys AS key
MATCH (t:Turn {key: key})
RETURN t.id AS id, t.conversation AS conversation
