// The path arm's hop out of people: the assertions about them and those naming them,
// one row per (person, assertion), for a batch of people at once.
UNWIND range(0, size($keys) - 1) AS i
WITH i, $keys[i] AS key
MATCH (p:Person {key: key})-[:SUBJECT_OF|MENTIONS]-(a:Assertion)
WITH DISTINCT i, p, a
RETURN p.id AS person, a.n AS assertion, a.subject AS subject, a.predicate AS predicate,
       a.negated AS negated, a.sentence AS sentence, a.dia_id AS dia_id
ORDER BY i, a.key
