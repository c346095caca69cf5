// The schema graphmem load relies on: one uniqueness constraint per key the load MERGEs on
// (each also gives the key its index), and the indexes the conversation scope reads by.
// Every statement is idempotent (IF NOT EXISTS); they run one by one, before any write.
CREATE CONSTRAINT conversation_id IF NOT EXISTS FOR (c:Conversation) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (s:Session) REQUIRE s.key IS UNIQUE;
CREATE CONSTRAINT turn_key IF NOT EXISTS FOR (t:Turn) REQUIRE t.key IS UNIQUE;
CREATE CONSTRAINT person_key IF NOT EXISTS FOR (p:Person) REQUIRE p.key IS UNIQUE;
CREATE CONSTRAINT assertion_key IF NOT EXISTS FOR (a:Assertion) REQUIRE a.key IS UNIQUE;
CREATE INDEX session_conversation IF NOT EXISTS FOR (s:Session) ON (s.conversation);
CREATE INDEX turn_conversation IF NOT EXISTS FOR (t:Turn) ON (t.conversation);
CREATE INDEX person_conversation IF NOT EXISTS FOR (p:Person) ON (p.conversation);
CREATE INDEX assertion_conversation IF NOT EXISTS FOR (a:Assertion) ON (a.conversation);
CREATE INDEX assertion_ref IF NOT EXISTS FOR (a:Assertion) ON (a.conversation, a.n);
// The person scope starts from the Person nodes a query names (search_parts.cypher).
CREATE INDEX person_lname IF NOT EXISTS FOR (p:Person) ON (p.lname);
// What the memory holds about a person starts from the Person nodes of that key (memory_facts.cypher).
CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id);
// A user's turns and conversations (graphmem.store.users: `owner`, a token of the user's name).
CREATE INDEX conversation_owner IF NOT EXISTS FOR (c:Conversation) ON (c.owner);
CREATE INDEX turn_owner IF NOT EXISTS FOR (t:Turn) ON (t.owner);
// The memory's search (Memory(backend="neo4j")): a Term node per user and stem (`owner`, `stem`) holds
// its document frequencies among that user's turns, kept by the same transaction that writes a turn's
// search fields; the full-text index holds those fields, pre-stemmed (whitespace analyser), and is
// searchable at commit. A database of one Term per stem (every user's counts together: graphmem
// before issue #47) loses that constraint and index here, and its Terms are counted again per user
// (term_owners.cypher, graphmem.store.neo4j.client.Client.ensure_schema).
DROP CONSTRAINT term_stem IF EXISTS;
DROP INDEX term_vdf IF EXISTS;
CREATE CONSTRAINT term_owner_stem IF NOT EXISTS FOR (x:Term) REQUIRE (x.owner, x.stem) IS UNIQUE;
CREATE INDEX term_owner_vdf IF NOT EXISTS FOR (x:Term) ON (x.owner, x.vdf);
CREATE FULLTEXT INDEX turn_terms IF NOT EXISTS FOR (t:Turn) ON EACH [t.terms, t.context, t.marks, t.scope] OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}};
// The dense side (Memory(backend="neo4j", dense=True), graphmem load --dense): one Sentence node
// per sentence of a turn, its embedding ("Speaker: sentence", multilingual-e5-small, 384
// dimensions) in a native vector index; a turn's `replied` is the key of the turn it replies to.
CREATE CONSTRAINT sentence_key IF NOT EXISTS FOR (s:Sentence) REQUIRE s.key IS UNIQUE;
CREATE INDEX sentence_turn IF NOT EXISTS FOR (s:Sentence) ON (s.turn);
CREATE INDEX sentence_conversation IF NOT EXISTS FOR (s:Sentence) ON (s.conversation);
CREATE INDEX turn_replied IF NOT EXISTS FOR (t:Turn) ON (t.replied);
CREATE VECTOR INDEX sentence_vectors IF NOT EXISTS FOR (s:Sentence) ON (s.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
