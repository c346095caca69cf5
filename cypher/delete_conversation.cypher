// One batch of a conversation's subgraph (--replace); run until it deletes nothing.
CALL {
  MATCH (n:Assertion {conversation: $conversation}) RETURN n
  UNION ALL
  MATCH (n:Turn {conversation: $conversation}) RETURN n
  UNION ALL
  MATCH (n:Sentence {conversation: $conversation}) RETURN n
  UNION ALL
  MATCH (n:Person {conversation: $conversation}) RETURN n
  UNION ALL
  MATCH (n:Session {conversation: $conversation}) RETURN n
  UNION ALL
  MATCH (n:Conversation {id: $conversation}) RETURN n
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
