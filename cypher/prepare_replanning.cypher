// After a load: sample every index now and clear the plans made so far, so that the statements
// warmed next are planned once for the data as loaded. Left to itself the server samples in the
// background and plans each statement again at its next use once enough has changed: the first
// search of the next program would pay that planning.
CALL db.prepareForReplanning($p.seconds)
