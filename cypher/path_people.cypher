// The path arm: every person of one conversation scope.
MATCH (p:Person {conversation: $conversation})
RETURN p.id AS person
ORDER BY p.n
