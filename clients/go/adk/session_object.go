package adk

import (
	"iter"
	"maps"
	"sync"
	"time"

	"google.golang.org/adk/v2/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// adkSession is the session.Session SessionService hands out: a snapshot of
// the stored session that AppendEvent keeps up to date in place, and the
// mnemod version it reflects, so that an append through a stale object is
// refused instead of silently interleaving.
type adkSession struct {
	app, user, id string

	mu      sync.RWMutex
	state   map[string]any
	events  []*session.Event
	updated time.Time
	version int64
}

func newSession(s *mnemo.Session, events []*session.Event) *adkSession {
	state := s.State
	if state == nil {
		state = map[string]any{}
	}
	return &adkSession{app: s.App, user: s.User, id: s.ID, state: state, events: events,
		updated: s.UpdatedAt, version: s.Version}
}

func (s *adkSession) ID() string      { return s.id }
func (s *adkSession) AppName() string { return s.app }
func (s *adkSession) UserID() string  { return s.user }

func (s *adkSession) State() session.State { return (*sessionState)(s) }

func (s *adkSession) Events() session.Events {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return eventList(s.events[:len(s.events):len(s.events)])
}

func (s *adkSession) LastUpdateTime() time.Time {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.updated
}

func (s *adkSession) versionNow() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version
}

// applied records a stored event: the event as stored joins the events, and
// the whole delta (temp: keys included) the state.
func (s *adkSession) applied(stored *session.Event, delta map[string]any, version int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, stored)
	maps.Copy(s.state, delta)
	s.updated = stored.Timestamp
	s.version = version
}

// sessionState is the session.State of an adkSession.
type sessionState adkSession

func (s *sessionState) Get(key string) (any, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	value, ok := s.state[key]
	if !ok {
		return nil, session.ErrStateKeyNotExist
	}
	return value, nil
}

// Set changes this session object's state only; state reaches mnemod
// through the state deltas of appended events, as in ADK's own services.
func (s *sessionState) Set(key string, value any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state[key] = value
	return nil
}

func (s *sessionState) All() iter.Seq2[string, any] {
	s.mu.RLock()
	snapshot := maps.Clone(s.state)
	s.mu.RUnlock()
	return maps.All(snapshot)
}

// eventList is the session.Events of an adkSession.
type eventList []*session.Event

func (e eventList) All() iter.Seq[*session.Event] {
	return func(yield func(*session.Event) bool) {
		for _, event := range e {
			if !yield(event) {
				return
			}
		}
	}
}

func (e eventList) Len() int { return len(e) }

func (e eventList) At(i int) *session.Event {
	if i < 0 || i >= len(e) {
		return nil
	}
	return e[i]
}
