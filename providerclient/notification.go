package providerclient

// NotificationError says which claim a notification body that cannot be
// understood lacks or garbles. Its text names the field and never quotes the
// body.
type NotificationError struct {
	Field   string // the field at fault, or "" for the body itself
	Problem string
}

func (e *NotificationError) Error() string {
	if e.Field == "" {
		return "the body " + e.Problem
	}
	return e.Field + " " + e.Problem
}
