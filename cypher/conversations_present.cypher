// Which of these conversations the database holds already (written by graphmem load or by a memory).
UNWIND $conversations AS id
MATCH (c:Conversation {id: id})
RETURN c.id AS conversation
