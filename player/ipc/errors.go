package ipc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is one of mpv's client API errors; its text is what the reply's "error" field says
// (mpv_error_string, libmpv/client.h's mpv_error).
type Error string

func (e Error) Error() string { return string(e) }

// mpv's errors that the player answers with.
const (
	ErrSuccess             Error = "success"
	ErrInvalidParameter    Error = "invalid parameter"
	ErrPropertyNotFound    Error = "property not found"
	ErrPropertyFormat      Error = "unsupported format for accessing property"
	ErrPropertyUnavailable Error = "property unavailable"
	ErrPropertyError       Error = "error accessing property"
	ErrCommand             Error = "error running command"
)

// errorString is the reply's "error" for err: an Error wrapped anywhere in it, else "error running
// command" (the player's own message goes to its log, not to the client, as mpv does).
func errorString(err error) string {
	if err == nil {
		return string(ErrSuccess)
	}
	var e Error
	if errors.As(err, &e) {
		return string(e)
	}
	return string(ErrCommand)
}

// Flag reads a property value that is a flag: JSON true/false, or mpv's strings yes/no (as
// set_property_string and text commands give them). Anything else is ErrPropertyFormat.
func Flag(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch x {
		case "yes", "true":
			return true, nil
		case "no", "false":
			return false, nil
		}
	}
	return false, fmt.Errorf("%w: %v is not a flag (true/false, yes/no)", ErrPropertyFormat, v)
}

// Number reads a numeric value: a JSON number (float64 or int64 as the server decodes them) or a
// string holding one. Anything else is ErrPropertyFormat.
func Number(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%w: %v is not a number", ErrPropertyFormat, v)
}

// String reads a string argument: a JSON string, or a number written as mpv writes it.
func String(v any) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return "", fmt.Errorf("%w: %v is not a string", ErrInvalidParameter, v)
}

// formatString is a property value as get_property_string and observe_property_string give it
// (mpv's m_option print functions): flags yes/no, numbers with six decimals (mpv's "%f"), strings
// as they are, nothing as nil, other values as JSON.
func formatString(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		if x {
			return "yes", nil
		}
		return "no", nil
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', 6, 64), nil
	case float32:
		return strconv.FormatFloat(float64(x), 'f', 6, 32), nil
	case int:
		return strconv.Itoa(x), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	}
	b, err := marshal(v)
	return string(b), err
}
