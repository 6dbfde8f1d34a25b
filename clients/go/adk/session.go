package adk

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"google.golang.org/adk/v2/session"

	mnemo "github.com/mnemod/mnemod/clients/go"
)

// SessionService is ADK-Go's session.Service over mnemod.
type SessionService struct {
	client *mnemo.Client
}

var _ session.Service = (*SessionService)(nil)

// NewSessionService makes a SessionService that stores through client.
func NewSessionService(client *mnemo.Client) *SessionService {
	return &SessionService{client: client}
}

// Create creates a session, with an id chosen here when the request has
// none. Its state's "app:" and "user:" keys go to those scopes ("temp:" keys
// only to the session object answered), and the session answered shows the
// app's and the user's state merged in. An existing id is an error that wraps mnemo.AlreadyExists.
func (s *SessionService) Create(ctx context.Context, req *session.CreateRequest) (*session.CreateResponse, error) {
	if req.AppName == "" || req.UserID == "" {
		return nil, fmt.Errorf("adk: Create needs an app name and a user id, got %q and %q", req.AppName, req.UserID)
	}
	id := req.SessionID
	if id == "" {
		id = mnemo.NewID()
	}
	created, err := s.client.CreateSession(ctx, req.AppName, req.UserID,
		mnemo.NewSession{ID: id, State: withoutTemp(req.State)})
	if err != nil {
		return nil, fmt.Errorf("adk: creating session %s/%s/%s: %w", req.AppName, req.UserID, id, err)
	}
	answered := newSession(created, nil)
	// As in ADK's own services, the session answered holds the request's temp: keys; storage never does.
	for key, value := range req.State {
		if strings.HasPrefix(key, session.KeyPrefixTemp) {
			answered.state[key] = value
		}
	}
	return &session.CreateResponse{Session: answered}, nil
}

// Get reads a session with its events, NumRecentEvents and After applied as
// ADK defines them (the newest N; those at or after After). A missing
// session is an error that wraps mnemo.NotFound.
func (s *SessionService) Get(ctx context.Context, req *session.GetRequest) (*session.GetResponse, error) {
	if req.AppName == "" || req.UserID == "" || req.SessionID == "" {
		return nil, fmt.Errorf("adk: Get needs an app name, a user id and a session id, got %q, %q and %q",
			req.AppName, req.UserID, req.SessionID)
	}
	opts := mnemo.GetSessionOptions{NumRecentEvents: req.NumRecentEvents}
	if !req.After.IsZero() {
		// mnemod keeps microseconds and answers what is strictly after; ADK asks for at or after.
		opts.After = req.After.Truncate(time.Microsecond).Add(-time.Microsecond)
	}
	read, err := s.client.GetSession(ctx, req.AppName, req.UserID, req.SessionID, opts)
	if err != nil {
		return nil, fmt.Errorf("adk: reading session %s/%s/%s: %w", req.AppName, req.UserID, req.SessionID, err)
	}
	events := make([]*session.Event, 0, len(read.Events))
	for i := range read.Events {
		event, err := eventFrom(&read.Events[i])
		if err != nil {
			return nil, fmt.Errorf("adk: session %s/%s/%s: %w", req.AppName, req.UserID, req.SessionID, err)
		}
		if req.After.IsZero() || !event.Timestamp.Before(req.After) {
			events = append(events, event)
		}
	}
	return &session.GetResponse{Session: newSession(&read.Session, events)}, nil
}

// List lists a user's sessions, or the whole app's when UserID is empty,
// each with its merged state (as ADK's own services answer) and no events.
// mnemod's listing carries no state, so each session listed is read once more.
func (s *SessionService) List(ctx context.Context, req *session.ListRequest) (*session.ListResponse, error) {
	if req.AppName == "" {
		return nil, errors.New("adk: List needs an app name")
	}
	sessions := []session.Session{}
	for listed, err := range s.client.Sessions(ctx, req.AppName, req.UserID, mnemo.ListSessionsOptions{Limit: 1000}) {
		if err != nil {
			return nil, fmt.Errorf("adk: listing the sessions of %s: %w", req.AppName, err)
		}
		read, err := s.client.GetSession(ctx, listed.App, listed.User, listed.ID,
			mnemo.GetSessionOptions{NumRecentEvents: 1})
		if errors.Is(err, mnemo.NotFound) {
			continue // deleted since it was listed
		}
		if err != nil {
			return nil, fmt.Errorf("adk: listing the sessions of %s: %w", req.AppName, err)
		}
		sessions = append(sessions, newSession(&read.Session, nil))
	}
	return &session.ListResponse{Sessions: sessions}, nil
}

// Delete deletes a session; deleting one that is not there is not an error.
func (s *SessionService) Delete(ctx context.Context, req *session.DeleteRequest) error {
	if req.AppName == "" || req.UserID == "" || req.SessionID == "" {
		return fmt.Errorf("adk: Delete needs an app name, a user id and a session id, got %q, %q and %q",
			req.AppName, req.UserID, req.SessionID)
	}
	err := s.client.DeleteSession(ctx, req.AppName, req.UserID, req.SessionID, false)
	if err != nil && !errors.Is(err, mnemo.NotFound) {
		return fmt.Errorf("adk: deleting session %s/%s/%s: %w", req.AppName, req.UserID, req.SessionID, err)
	}
	return nil
}

// ErrStale is wrapped by AppendEvent's error when the session object missed
// a write made through another object or client since it was read: get the
// session again and retry.
var ErrStale = errors.New("adk: the session changed since this session object was read")

// AppendEvent stores event and its state delta in one atomic write, then
// updates the session object in place as ADK's own services do: the event
// joins its events, and the whole state delta its state, "temp:" keys
// included for the rest of the invocation (storage never sees them). A
// partial event is neither stored nor applied. The event's timestamp is
// truncated to microseconds, the precision mnemod keeps; an event without
// an id gets one.
func (s *SessionService) AppendEvent(ctx context.Context, sess session.Session, event *session.Event) error {
	if sess == nil || event == nil {
		return errors.New("adk: AppendEvent needs a session and an event")
	}
	if event.Partial {
		return nil
	}
	event.Timestamp = event.Timestamp.Truncate(time.Microsecond)
	if event.ID == "" {
		event.ID = mnemo.NewID()
	}
	stored := withoutTempDelta(event)
	newEvent, err := toMnemo(stored)
	if err != nil {
		return err
	}
	own, _ := sess.(*adkSession)
	var opts mnemo.AppendOptions
	if own != nil {
		opts.ExpectedVersion = own.versionNow()
	}
	answer, err := s.client.AppendEvent(ctx, sess.AppName(), sess.UserID(), sess.ID(), newEvent, opts)
	var conflict *mnemo.Error
	if errors.As(err, &conflict) && conflict.Code == mnemo.Conflict {
		// A conflict with the session's version is a stale object; one without
		// is the event's id already stored with other content.
		if _, stale := conflict.CurrentVersion(); stale {
			return fmt.Errorf("%w (session %s/%s/%s): %w", ErrStale, sess.AppName(), sess.UserID(), sess.ID(), err)
		}
	}
	if err != nil {
		return fmt.Errorf("adk: appending event %s to session %s/%s/%s: %w",
			event.ID, sess.AppName(), sess.UserID(), sess.ID(), err)
	}
	if own != nil {
		own.applied(stored, event.Actions.StateDelta, answer.Version)
	}
	return nil
}

func withoutTemp(state map[string]any) map[string]any {
	if state == nil {
		return nil
	}
	kept := maps.Clone(state)
	maps.DeleteFunc(kept, func(key string, _ any) bool { return strings.HasPrefix(key, session.KeyPrefixTemp) })
	return kept
}

// withoutTempDelta is event as it is stored: without its state delta's "temp:" keys.
func withoutTempDelta(event *session.Event) *session.Event {
	kept := withoutTemp(event.Actions.StateDelta)
	if len(kept) == len(event.Actions.StateDelta) {
		return event
	}
	stored := *event
	stored.Actions.StateDelta = kept
	return &stored
}
