// Its values travel in one map, `$p`, for one plan whatever their sizes (why: search_parts.cypher).
// What the memory holds about one person of one user (facts: graphmem.claims.facts): the assertions
// the claim reader made about the Person nodes of that name (and the claims of their own turns), in every
// conversation of the user,
// with the turn each was read from. One row: each claim as one string, its fields joined by U+001F
// (the mentions among them by U+001E, each followed by one), its date as ISO text, because the
// driver decodes a string at the cost of one value and a claim of ten fields at the cost of ten.
// `plain`: no field is missing or holds either character, and no date has a time zone; else the
// caller reads memory_facts_rows.cypher instead.
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
WITH a, t, (a.date IS NULL OR a.date IS :: LOCAL DATETIME) AND a.negated IS NOT NULL
  AND none(s IN [a.subject, a.predicate, a.object, a.sentence, t.id, coalesce(a.topic, ''), coalesce(a.speaker, '')]
                + coalesce(a.mentions, []) WHERE s IS NULL OR s CONTAINS '\u001f' OR s CONTAINS '\u001e') AS plain
ORDER BY t.conversation, t.position, a.seq
RETURN collect(a.subject + '\u001f' + a.predicate + '\u001f' + a.object + '\u001f' + toString(a.negated) + '\u001f'
               + a.sentence + '\u001f' + t.id + '\u001f' + coalesce(toString(a.date), '') + '\u001f'
               + reduce(s = '', m IN coalesce(a.mentions, []) | s + m + '\u001e') + '\u001f'
               + coalesce(a.topic, '') + '\u001f' + coalesce(a.speaker, '')) AS claims,
       all(x IN collect(plain) WHERE x) AS plain
