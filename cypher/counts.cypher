// What one conversation holds: nodes per label (Person nodes as people and as the named animals and
// things, by `human`; a node an older graphmem wrote has none, and counts as a person) and
// relationships per type.
RETURN
  COUNT { MATCH (:Conversation {id: $conversation}) } AS conversations,
  COUNT { MATCH (:Session {conversation: $conversation}) } AS sessions,
  COUNT { MATCH (:Turn {conversation: $conversation}) } AS turns,
  COUNT { MATCH (p:Person {conversation: $conversation}) WHERE coalesce(p.human, true) } AS people,
  COUNT { MATCH (p:Person {conversation: $conversation}) WHERE NOT coalesce(p.human, true) } AS others,
  COUNT { MATCH (:Assertion {conversation: $conversation}) } AS assertions,
  COUNT { MATCH (a:Assertion {conversation: $conversation}) WHERE a.derived } AS derived,
  COUNT { MATCH (:Conversation {id: $conversation})-[:HAS_SESSION]->() } AS has_session,
  COUNT { MATCH (:Session {conversation: $conversation})-[:HAS_TURN]->() } AS has_turn,
  COUNT { MATCH (:Person {conversation: $conversation})-[:SPOKE]->() } AS spoke,
  COUNT { MATCH (:Person {conversation: $conversation})-[:SUBJECT_OF]->() } AS subject_of,
  COUNT { MATCH (:Assertion {conversation: $conversation})-[:MENTIONS]->() } AS mentions,
  COUNT { MATCH (:Assertion {conversation: $conversation})-[:READ_FROM]->() } AS read_from
