// The path arm's hop out of assertions: for each, its subject and then whoever it names.
UNWIND range(0, size($assertions) - 1) AS i
WITH i, $assertions[i] AS n
MATCH (a:Assertion {conversation: $conversation, n: n})-[r:SUBJECT_OF|MENTIONS]-(p:Person)
RETURN a.n AS assertion, p.id AS person
ORDER BY i, CASE type(r) WHEN 'SUBJECT_OF' THEN 0 ELSE 1 END, p.n
