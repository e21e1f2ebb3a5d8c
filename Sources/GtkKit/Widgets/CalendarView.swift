import CGtk
import GObjectCore

/// A `GtkCalendar`: a month grid to pick a day from. Days are plain year, month and day, with
/// no time zone, so the day picked is the day shown.
@MainActor
public final class CalendarView: Widget {
    public init() {
        super.init(adopting: untyped(gtk_calendar_new()))
    }

    /// The selected day; setting it also shows its month.
    public var selectedDay: (year: Int, month: Int, day: Int) {
        get {
            guard let date = gtk_calendar_get_date(pointer()) else { return (1970, 1, 1) }
            defer { g_date_time_unref(date) }
            return (Int(g_date_time_get_year(date)), Int(g_date_time_get_month(date)), Int(g_date_time_get_day_of_month(date)))
        }
        set {
            guard let date = g_date_time_new_utc(gint(newValue.year), gint(newValue.month), gint(newValue.day), 12, 0, 0) else { return }
            gtk_calendar_select_day(pointer(), date)
            g_date_time_unref(date)
        }
    }

    /// Called when a person picks a day (also when `selectedDay` is set).
    @discardableResult
    public func onDaySelected(_ handler: @escaping @MainActor () -> Void) -> SignalHandler { connect("day-selected", handler) }
}
