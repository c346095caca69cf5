// The reading fingerprint of each conversation (null: absent, or its load did not finish).
UNWIND $conversations AS id
OPTIONAL MATCH (c:Conversation {id: id})
RETURN id AS conversation, c.reading AS reading
