// The assertions read from turns that are read again (a name learnt later): removed before
// the new reading is written.
UNWIND $keys AS key
MATCH (a:Assertion)-[:READ_FROM]->(:Turn {key: key})
DETACH DELETE a
