// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// What the memory holds about one person of one user (facts: graphmem.claims.facts): the assertions
// the claim reader made about the Person nodes of that name, in every conversation of the user,
// with the turn each was read from, a record each: what memory_facts.cypher returns when a claim holds one of
// the characters it joins fields with, or a date with a time zone.
MATCH (p:Person {id: $p.about})
WHERE p.owner = $p.owner
MATCH (p)-[:SUBJECT_OF]->(a:Assertion)-[:READ_FROM]->(t:Turn)
WHERE NOT coalesce(a.derived, false)
RETURN a.subject AS subject, a.predicate AS predicate, a.object AS object, a.negated AS negated,
       a.sentence AS sentence, t.id AS turn_id, a.date AS date, coalesce(a.mentions, []) AS mentions,
       coalesce(a.topic, '') AS topic, coalesce(a.speaker, '') AS speaker
ORDER BY t.conversation, t.position, a.seq
