// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// What the memory holds about one person of one user (facts: graphmem.claims.facts): the assertions
// the claim reader made about the Person nodes of that name (and the claims of their own turns), in every
// conversation of the user,
// with the turn each was read from, a record each: what memory_facts.cypher returns when a claim holds one of
// the characters it joins fields with, or a date with a time zone.
MATCH (p:Person {id: $p.about})
WHERE p.owner = $p.owner
CALL (p) {
  MATCH (p)-[:SUBJECT_OF]->(a:Assertion)-[:READ_FROM]->(t:Turn)
  RETURN a, t
  UNION
  // the person's own turns' other claims: "Mo passed away" is about Mo, and ends the speaker's pet
  // (graphmem.claims.facts.Told.about reads them for such endings alone)
  MATCH (p)-[:SPOKE]->(t:Turn)<-[:READ_FROM]-(a:Assertion)
  RETURN a, t
}
WITH DISTINCT a, t
WHERE NOT coalesce(a.derived, false)
RETURN a.subject AS subject, a.predicate AS predicate, a.object AS object, a.negated AS negated,
       a.sentence AS sentence, t.id AS turn_id, a.date AS date, coalesce(a.mentions, []) AS mentions,
       coalesce(a.topic, '') AS topic, coalesce(a.speaker, '') AS speaker
ORDER BY t.conversation, t.position, a.seq
