package trpc

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"trpc.group/trpc-go/trpc-agent-go/event"
	"trpc.group/trpc-go/trpc-agent-go/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// SessionService is tRPC-Agent-Go's session.Service over mnemod.
type SessionService struct {
	client *mnemo.Client
}

var _ session.Service = (*SessionService)(nil)

// NewSessionService makes a SessionService that stores through client.
func NewSessionService(client *mnemo.Client) *SessionService {
	return &SessionService{client: client}
}

// CreateSession creates a session, with an id chosen here when the key has
// none. mnemod applies the state by its prefix rules: "app:" and "user:"
// keys go to the app's and the user's state (tRPC's in-memory service keeps
// them in the session), "temp:" keys only to the session answered. The
// session answered shows the app's and the user's state merged in.
func (s *SessionService) CreateSession(ctx context.Context, key session.Key, state session.StateMap,
	_ ...session.Option) (*session.Session, error) {
	if err := key.CheckUserKey(); err != nil {
		return nil, err
	}
	if key.SessionID == "" {
		key.SessionID = mnemo.NewID()
	}
	created, err := s.client.CreateSession(ctx, key.AppName, key.UserID,
		mnemo.NewSession{ID: key.SessionID, State: deltaOf(state, "")})
	if err != nil {
		return nil, fmt.Errorf("trpc: creating session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	sess := sessionOf(created, nil)
	for k, v := range state {
		if strings.HasPrefix(k, session.StateTempPrefix) {
			sess.SetState(k, v)
		}
	}
	return sess, nil
}

// GetSession reads a session: nil and no error when there is none.
// WithEventNum and WithEventTime filter its events as tRPC's own services
// do, starting them at a user message; its summaries come with it.
func (s *SessionService) GetSession(ctx context.Context, key session.Key,
	options ...session.Option) (*session.Session, error) {
	if err := key.CheckSessionKey(); err != nil {
		return nil, err
	}
	opts := applied(options)
	if err := session.ValidateGetSessionOptions(opts, false); err != nil {
		return nil, err
	}
	sess, err := s.read(ctx, key.AppName, key.UserID, key.SessionID)
	if sess == nil || err != nil {
		return nil, err
	}
	sess.ApplyEventFiltering(session.WithEventNum(opts.EventNum), session.WithEventTime(opts.EventTime))
	filterTracks(sess.Tracks, opts)
	return sess, nil
}

// ListSessions lists a user's sessions, most recently updated first, each
// read as GetSession reads it (WithListSessionOnlyMeta: without events and
// summaries). WithListSessionPage pages them.
func (s *SessionService) ListSessions(ctx context.Context, userKey session.UserKey,
	options ...session.Option) ([]*session.Session, error) {
	if err := userKey.CheckUserKey(); err != nil {
		return nil, err
	}
	opts := applied(options)
	if err := session.ValidateListSessionsOptions(opts); err != nil {
		return nil, err
	}
	sessions := []*session.Session{}
	for listed, err := range s.client.Sessions(ctx, userKey.AppName, userKey.UserID,
		mnemo.ListSessionsOptions{Limit: 1000}) {
		if err != nil {
			return nil, fmt.Errorf("trpc: listing the sessions of %s/%s: %w", userKey.AppName, userKey.UserID, err)
		}
		// mnemod's listing carries no state or summaries: each session is read.
		sess, err := s.read(ctx, listed.App, listed.User, listed.ID)
		if err != nil {
			return nil, err
		}
		if sess == nil {
			continue // deleted since it was listed
		}
		if opts.ListSessionOnlyMeta {
			sess.Events, sess.Tracks = []event.Event{}, nil
		} else {
			sess.ApplyEventFiltering(options...)
			filterTracks(sess.Tracks, opts)
		}
		sessions = append(sessions, sess)
	}
	if page := opts.ListSessionPage; page != nil {
		sessions = sessions[min(page.Offset, len(sessions)):]
		if page.Limit > 0 {
			sessions = sessions[:min(page.Limit, len(sessions))]
		}
	}
	return sessions, nil
}

// DeleteSession deletes a session; deleting one that is not there is no error.
func (s *SessionService) DeleteSession(ctx context.Context, key session.Key, _ ...session.Option) error {
	if err := key.CheckSessionKey(); err != nil {
		return err
	}
	err := s.client.DeleteSession(ctx, key.AppName, key.UserID, key.SessionID, false)
	if err != nil && !errors.Is(err, mnemo.NotFound) {
		return fmt.Errorf("trpc: deleting session %s/%s/%s: %w", key.AppName, key.UserID, key.SessionID, err)
	}
	return nil
}

// Close releases the client's idle connections.
func (s *SessionService) Close() error {
	s.client.Close()
	return nil
}

// read is a whole session with its events, summaries and tracks, or nil when there is none.
func (s *SessionService) read(ctx context.Context, app, user, id string) (*session.Session, error) {
	read, err := s.client.GetSession(ctx, app, user, id, mnemo.GetSessionOptions{})
	if errors.Is(err, mnemo.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trpc: reading session %s/%s/%s: %w", app, user, id, err)
	}
	events := make([]event.Event, 0, len(read.Events))
	for i := range read.Events {
		e, err := eventFrom(&read.Events[i])
		if err != nil {
			return nil, fmt.Errorf("trpc: session %s/%s/%s: %w", app, user, id, err)
		}
		events = append(events, *e)
	}
	sess := sessionOf(&read.Session, events)
	if sess.Summaries, err = s.summaries(ctx, app, user, id, read.Events); err != nil {
		return nil, err
	}
	key := session.Key{AppName: app, UserID: user, SessionID: id}
	if sess.Tracks, err = s.tracks(ctx, key, sess.SnapshotState()); err != nil {
		return nil, err
	}
	return sess, nil
}

func sessionOf(s *mnemo.Session, events []event.Event) *session.Session {
	if events == nil {
		events = []event.Event{}
	}
	return session.NewSession(s.App, s.User, s.ID,
		session.WithSessionState(stateMapOf(s.State)),
		session.WithSessionEvents(events),
		session.WithSessionCreatedAt(s.CreatedAt),
		session.WithSessionUpdatedAt(s.UpdatedAt))
}

func applied(options []session.Option) *session.Options {
	opts := &session.Options{}
	for _, o := range options {
		o(opts)
	}
	return opts
}
