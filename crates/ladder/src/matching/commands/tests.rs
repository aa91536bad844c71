use super::super::tests::{find_on, panels};
use crate::types::Candidate;

#[test]
fn commands_match_only_when_named_whole() {
    let cmds = vec![
        Candidate::new("settings", "Open Settings"),
        Candidate::new("recent", "Open Recent"),
        Candidate::new("out", "Log Out"),
        Candidate::new("notif", "Notifications"),
    ];
    let table: &[(&str, Option<(&str, bool)>)] = &[
        ("open recent", Some(("recent", true))),
        ("Open Recent", Some(("recent", true))),
        ("please open recent now", Some(("recent", true))),
        ("please open that recent", Some(("recent", false))),
        ("log me out", Some(("out", true))),
        ("logout", Some(("out", true))),
        ("show my notifications", Some(("notif", true))),
        // An acknowledgement before the command names nothing.
        ("got it, thanks. log me out", Some(("out", false))),
        // A yes before it, or a word of the order, names nothing either.
        ("right, log me out first", Some(("out", false))),
        ("first, log out", Some(("out", false))),
        // So do words that only hold the turn; alone they name nothing.
        ("hold on, log me out first", Some(("out", false))),
        ("wait, log out", Some(("out", false))),
        ("hold on", None),
        ("hold on, log", None),
        ("noted, log out of the shared account", None),
        ("open sales report", None),
        ("open", None),
        ("settings", None),
        ("recent", None),
    ];
    for (input, want) in table {
        let (m, _) = find_on(input, &panels(), &cmds);
        let got = m.command.map(|c| (cmds[c.index].id.as_str(), c.exact));
        assert_eq!(got, *want, "input {input:?}");
    }
}
