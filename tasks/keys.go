package tasks

// asynq keeps a queue's state under keys of its own naming, which PixGate
// reads (never writes) to see how far behind the workers are: the api's
// admission, the worker's send narrowing, the load harness. The names are
// asynq's private scheme for the pinned version; api's admission test
// enqueues through asynq and reads them back, so an upgrade that renames
// them fails the build's tests, not production.

// PendingKey is the list of a queue's tasks ready to run.
func PendingKey(queue string) string { return keyPrefix(queue) + "pending" }

// ProcessedKey is the count of a queue's tasks processed, ever.
func ProcessedKey(queue string) string { return keyPrefix(queue) + "processed" }

// RetryKey is the sorted set of a queue's tasks waiting to be retried.
func RetryKey(queue string) string { return keyPrefix(queue) + "retry" }

func keyPrefix(queue string) string { return "asynq:{" + queue + "}:" }
