package recurrence

import "errors"

// FieldError names the member of a request that is wrong, as a JSON path
// ("calendar.end", "amount.floor"), and says why.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + " " + e.Message }

// fieldErr builds a *FieldError.
func fieldErr(field, message string) error { return &FieldError{Field: field, Message: message} }

// ErrTransition: the event is not allowed from the record's status.
var ErrTransition = errors.New("transition not allowed")

// ErrRepeated: the record is already where the event leads (a repeated
// notification); the caller changes nothing and reports success.
var ErrRepeated = errors.New("already applied")

// TransitionError says which record refused which event from which
// status. errors.Is matches ErrTransition, and ErrRepeated too when the
// record already is where the event leads.
type TransitionError struct {
	Kind     string // "recurrence", "cycle", "attempt"
	From     string
	Event    string
	Repeated bool
}

func (e *TransitionError) Error() string {
	if e.Repeated {
		return e.Kind + " is already " + e.From + ": " + e.Event + " already applied"
	}
	return e.Kind + " " + e.From + " cannot take " + e.Event
}

// Is matches ErrTransition always and ErrRepeated when Repeated.
func (e *TransitionError) Is(target error) bool {
	return target == ErrTransition || (e.Repeated && target == ErrRepeated)
}
