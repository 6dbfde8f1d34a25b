package mnemo

import (
	"net/url"
	"strconv"
	"time"
)

// Names are percent-encoded, so that a bad one reaches the daemon and its 400 names it.
func seg(name string) string { return url.PathEscape(name) }

func appPath(app string) string { return "/v1/apps/" + seg(app) }

func userPath(app, user string) string { return appPath(app) + "/users/" + seg(user) }

func sessionPath(app, user, session string) string {
	return userPath(app, user) + "/sessions/" + seg(session)
}

func lanePath(app, lane string) string { return appPath(app) + "/lanes/" + seg(lane) }

// query builds a query string, leaving out zero values (the daemon's defaults apply).
type query url.Values

func (q query) str(key, value string) query {
	if value != "" {
		url.Values(q).Set(key, value)
	}
	return q
}

func (q query) int(key string, value int64) query {
	if value != 0 {
		url.Values(q).Set(key, strconv.FormatInt(value, 10))
	}
	return q
}

func (q query) flag(key string, value bool) query {
	if value {
		url.Values(q).Set(key, "true")
	}
	return q
}

func (q query) time(key string, value time.Time) query {
	if !value.IsZero() {
		url.Values(q).Set(key, formatTime(value))
	}
	return q
}

// formatTime writes a time as the daemon keeps it: RFC 3339 UTC with microseconds.
func formatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00") }
