// Example queries for Neo4j Browser, over a graph written by `graphmem load`.
// Drag this file (and style.grass) onto Browser, or paste one query at a time.
// Set the parameters once; edit them to look at another conversation, person or answer.
// Persons are keyed by their folded name (`caroline`); turns by dia_id (`D1:3`).
:params {conversation: 'conv-26', person: 'caroline', topic: 'painting', session: 1, turns: ['D1:3', 'D1:5']}

// person-neighbourhood: a person's one-hop neighbourhood: the assertions about them, those naming them, and the turns they spoke
MATCH (p:Person {key: $conversation + '/' + $person})-[r]-(x)
RETURN p, r, x
LIMIT 150;

// topic: everything said about a topic: the assertions whose sentence or object mentions it, who they are about, and the turn
MATCH (p:Person)-[s:SUBJECT_OF]->(a:Assertion {conversation: $conversation})-[f:READ_FROM]->(t:Turn)
WHERE toLower(a.sentence) CONTAINS toLower($topic) OR toLower(a.object) CONTAINS toLower($topic)
RETURN p, s, a, f, t;

// said-in-session: what one person said in one session, turn by turn
MATCH (:Conversation {id: $conversation})-[:HAS_SESSION]->(s:Session {index: $session})-[:HAS_TURN]->(t:Turn)<-[:SPOKE]-(p:Person {id: $person})
RETURN s.date_text AS session, t.id AS turn, t.text AS said
ORDER BY t.position;

// answer-assertions: the assertions behind a bench answer: what was read from the turns it cites (path_prediction_context in bench --out), who each is about, and whom it names
UNWIND $turns AS id
MATCH (t:Turn {key: $conversation + '/' + id})<-[f:READ_FROM]-(a:Assertion)<-[s:SUBJECT_OF]-(p:Person)
OPTIONAL MATCH (a)-[m:MENTIONS]->(q:Person)
RETURN t, f, a, s, p, m, q;

// people: who is in a conversation, and how many assertions are about each
MATCH (:Conversation {id: $conversation})-[:HAS_SESSION]->(:Session)-[:HAS_TURN]->(:Turn)<-[:READ_FROM]-(a:Assertion)<-[:SUBJECT_OF]-(p:Person)
RETURN p.name AS person, count(a) AS assertions, sum(CASE WHEN a.negated THEN 1 ELSE 0 END) AS negated
ORDER BY assertions DESC;
