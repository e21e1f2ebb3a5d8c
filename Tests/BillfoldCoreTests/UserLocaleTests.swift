import Foundation
import Testing
@testable import BillfoldCore

@Suite struct UserLocaleTests {
    @Test func categoriesFollowThePOSIXOrder() {
        let environment = ["LANG": "fr_FR.UTF-8", "LC_MONETARY": "de_DE.UTF-8", "LC_TIME": ""]
        #expect(UserLocale.locale(for: "LC_MONETARY", environment: environment).identifier == "de_DE")
        #expect(UserLocale.locale(for: "LC_NUMERIC", environment: environment).identifier == "fr_FR")
        #expect(UserLocale.locale(for: "LC_TIME", environment: environment).identifier == "fr_FR")
        let all = environment.merging(["LC_ALL": "ja_JP.UTF-8"]) { $1 }
        #expect(UserLocale.locale(for: "LC_MONETARY", environment: all).identifier == "ja_JP")
    }

    @Test func readsTheProcessVariablesLikeTheDictionary() {
        // LC_PAPER: a category no formatter reads, so other tests running meanwhile are unaffected.
        setenv("LC_PAPER", "de_DE.UTF-8", 1)
        defer { unsetenv("LC_PAPER") }
        let fromProcess = UserLocale.locale(for: "LC_PAPER").identifier
        #expect(fromProcess == UserLocale.locale(for: "LC_PAPER", environment: ProcessInfo.processInfo.environment).identifier)
        if (ProcessInfo.processInfo.environment["LC_ALL"] ?? "").isEmpty {
            #expect(fromProcess == "de_DE")
        }
    }

    @Test func posixNamesBecomeLocaleIdentifiers() {
        #expect(UserLocale.identifier(fromPOSIX: "de_DE.UTF-8@euro") == "de_DE")
        #expect(UserLocale.identifier(fromPOSIX: "sr_RS@latin") == "sr_RS")
        #expect(UserLocale.identifier(fromPOSIX: "C.UTF-8") == "en_US_POSIX")
        #expect(UserLocale.identifier(fromPOSIX: "POSIX") == "en_US_POSIX")
        #expect(UserLocale.identifier(fromPOSIX: "") == "en_US_POSIX")
    }

    @Test func formattersUseTheUsersMonetaryLocale() {
        let german = MoneyFormatter(locale: UserLocale.locale(for: "LC_MONETARY", environment: ["LANG": "de_DE.UTF-8"]))
        #expect(german.string(from: Money(minorUnits: 123_450, currency: .eur)) == "1.234,50\u{A0}€")
    }
}
