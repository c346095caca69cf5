// Stamp a checked load with the fingerprint of the reading it holds.
MATCH (c:Conversation {id: $conversation})
SET c.reading = $reading
