import CalendarModel

/// Every word the CSV formats read and write: header names per language, cell values for
/// booleans, priority, sensitivity and free/busy, and the participant vocabulary that maps
/// Outlook's attendee columns to roles and types.
///
/// Header sources (real exports or programs written against them): English — Outlook's export as
/// Mozilla Calendar's importer and the corpus' hebcal and Yahoo files spell it; German —
/// msxcsv2ics and lookout.el (Outlook German export); French — a PHP exporter writing Outlook's
/// French header (note the repeated "Début" and "Fin": date and time columns share a name, so
/// columns are matched in order); Chinese — two course-schedule exporters writing Outlook's
/// Chinese header (one spells "开始日期**" and "地点**"); Japanese — an ICS→CSV tool's
/// "OutlookClassic" header. Spanish is Outlook's Spanish field names; no export was found to
/// check it against, so it also accepts the newer "Fecha de inicio" spellings.
enum CSVVocabulary {
    /// Outlook's header in each language, in that language's export order; the first spelling is
    /// written, later ones are accepted.
    static let outlookHeaders: [CSVLanguage: [(CSVColumn, [String])]] = [
        .english: [
            (.subject, ["Subject"]), (.startDate, ["Start Date"]), (.startTime, ["Start Time"]),
            (.endDate, ["End Date"]), (.endTime, ["End Time"]), (.allDay, ["All day event"]),
            (.reminderOn, ["Reminder on/off"]), (.reminderDate, ["Reminder Date"]), (.reminderTime, ["Reminder Time"]),
            (.organizer, ["Meeting Organizer"]), (.requiredAttendees, ["Required Attendees"]),
            (.optionalAttendees, ["Optional Attendees"]), (.resources, ["Meeting Resources"]),
            (.billing, ["Billing Information"]), (.categories, ["Categories"]), (.description, ["Description"]),
            (.location, ["Location"]), (.mileage, ["Mileage"]), (.priority, ["Priority"]), (.privateFlag, ["Private"]),
            (.sensitivity, ["Sensitivity"]), (.showTimeAs, ["Show time as"]),
        ],
        .german: [
            (.subject, ["Betreff"]), (.startDate, ["Beginnt am"]), (.startTime, ["Beginnt um"]),
            (.endDate, ["Endet am"]), (.endTime, ["Endet um"]), (.allDay, ["Ganztägiges Ereignis"]),
            (.reminderOn, ["Erinnerung Ein/Aus"]), (.reminderDate, ["Erinnerung am"]), (.reminderTime, ["Erinnerung um"]),
            (.organizer, ["Besprechungsplanung"]), (.requiredAttendees, ["Erforderliche Teilnehmer"]),
            (.optionalAttendees, ["Optionale Teilnehmer"]), (.resources, ["Besprechungsressourcen"]),
            (.billing, ["Abrechnungsinformationen"]), (.description, ["Beschreibung"]), (.categories, ["Kategorien"]),
            (.location, ["Ort"]), (.priority, ["Priorität"]), (.privateFlag, ["Privat"]), (.mileage, ["Reisekilometer"]),
            (.sensitivity, ["Vertraulichkeit"]), (.showTimeAs, ["Zeitspanne zeigen als"]),
        ],
        .french: [
            (.subject, ["Objet"]), (.startDate, ["Début", "Date de début"]), (.startTime, ["Début", "Heure de début"]),
            (.endDate, ["Fin", "Date de fin"]), (.endTime, ["Fin", "Heure de fin"]), (.allDay, ["Journée entière"]),
            (.reminderOn, ["Rappel actif/inactif"]), (.reminderDate, ["Date de rappel"]),
            (.reminderTime, ["Heure du rappel", "Heure de rappel"]), (.organizer, ["Organisateur d'une réunion"]),
            (.requiredAttendees, ["Participants obligatoires"]), (.optionalAttendees, ["Participants facultatifs"]),
            (.resources, ["Ressources de la réunion"]), (.showTimeAs, ["Afficher la disponibilité", "Disponibilité"]),
            (.categories, ["Catégories"]), (.sensitivity, ["Critère de diffusion"]), (.description, ["Description"]),
            (.location, ["Emplacement"]), (.billing, ["Informations facturation"]), (.mileage, ["Kilométrage"]),
            (.priority, ["Priorité"]), (.privateFlag, ["Privé"]),
        ],
        .spanish: [
            (.subject, ["Asunto"]), (.startDate, ["Fecha de comienzo", "Fecha de inicio"]),
            (.startTime, ["Comienzo", "Hora de inicio"]), (.endDate, ["Fecha de finalización", "Fecha de fin"]),
            (.endTime, ["Finalización", "Hora de finalización", "Hora de fin"]), (.allDay, ["Todo el día", "Evento de todo el día"]),
            (.reminderOn, ["Aviso activado/desactivado"]), (.reminderDate, ["Fecha del aviso"]),
            (.reminderTime, ["Hora del aviso"]), (.organizer, ["Organizador de la reunión"]),
            (.requiredAttendees, ["Asistentes obligatorios"]), (.optionalAttendees, ["Asistentes opcionales"]),
            (.resources, ["Recursos de la reunión"]), (.billing, ["Facturación", "Información de facturación"]),
            (.categories, ["Categorías"]), (.description, ["Descripción"]), (.location, ["Ubicación"]),
            (.mileage, ["Kilometraje"]), (.priority, ["Prioridad"]), (.privateFlag, ["Privado"]),
            (.sensitivity, ["Confidencialidad", "Sensibilidad"]), (.showTimeAs, ["Mostrar hora como"]),
        ],
        .chinese: [
            (.subject, ["主题"]), (.startDate, ["开始日期", "开始日期**"]), (.startTime, ["开始时间"]),
            (.endDate, ["结束日期"]), (.endTime, ["结束时间"]), (.allDay, ["全天事件"]), (.reminderOn, ["提醒开/关"]),
            (.reminderDate, ["提醒日期"]), (.reminderTime, ["提醒时间"]), (.organizer, ["会议组织者"]),
            (.requiredAttendees, ["必需的与会者"]), (.optionalAttendees, ["可选的与会者"]), (.resources, ["会议资源"]),
            (.location, ["地点", "地点**"]), (.billing, ["记帐信息"]), (.categories, ["类别"]), (.mileage, ["里程"]),
            (.showTimeAs, ["忙闲状态"]), (.sensitivity, ["敏感度"]), (.description, ["说明"]), (.privateFlag, ["私有"]),
            (.priority, ["优先级"]),
        ],
        .japanese: [
            (.subject, ["件名"]), (.startDate, ["開始日"]), (.startTime, ["開始時刻"]), (.endDate, ["終了日"]),
            (.endTime, ["終了時刻"]), (.allDay, ["終日イベント"]), (.reminderOn, ["アラーム オン/オフ"]),
            (.reminderDate, ["アラーム日付"]), (.reminderTime, ["アラーム時刻"]), (.organizer, ["会議の開催者"]),
            (.requiredAttendees, ["必須出席者"]), (.optionalAttendees, ["任意出席者"]), (.resources, ["リソース"]),
            (.privateFlag, ["プライベート"]), (.billing, ["経費情報"]), (.showTimeAs, ["公開する時間帯の種類"]),
            (.mileage, ["支払い条件"]), (.location, ["場所"]), (.description, ["内容"]), (.sensitivity, ["秘密度"]),
            (.categories, ["分類"]), (.priority, ["優先度"]),
        ],
    ]

    /// Google Calendar's import header (English only; Google documents no other spelling).
    /// "All Day Event" is capitalized unlike Outlook's "All day event", which tells the two apart
    /// when a header has only the shared columns.
    static let googleHeaders: [(CSVColumn, String)] = [
        (.subject, "Subject"), (.startDate, "Start Date"), (.startTime, "Start Time"), (.endDate, "End Date"),
        (.endTime, "End Time"), (.allDay, "All Day Event"), (.description, "Description"), (.location, "Location"),
        (.privateFlag, "Private"),
    ]

    /// Words for true and false, written in the file's language; reading accepts any of them.
    static let booleans: [CSVLanguage: (yes: String, no: String)] = [
        .english: ("True", "False"), .german: ("Ein", "Aus"), .french: ("Vrai", "Faux"),
        .spanish: ("Verdadero", "Falso"), .chinese: ("True", "False"), .japanese: ("True", "False"),
    ]

    /// Further spellings of true and false met in exports and spreadsheets.
    static let extraTrue: Set<String> = ["true", "yes", "1", "ja", "wahr", "an", "oui", "sí", "si", "是", "真", "はい", "オン", "on"]
    static let extraFalse: Set<String> = ["false", "no", "0", "nein", "falsch", "non", "否", "假", "いいえ", "オフ", "off"]

    /// Priority words (high, normal, low) per language; reading accepts any of them.
    static let priorities: [CSVLanguage: (high: String, normal: String, low: String)] = [
        .english: ("High", "Normal", "Low"), .german: ("Hoch", "Normal", "Niedrig"),
        .french: ("Haute", "Normale", "Basse"), .spanish: ("Alta", "Normal", "Baja"),
        .chinese: ("高", "中", "低"), .japanese: ("高", "標準", "低"),
    ]

    /// Sensitivity words (normal, personal, private, confidential) per language.
    static let sensitivities: [CSVLanguage: (normal: String, personal: String, private: String, confidential: String)] = [
        .english: ("Normal", "Personal", "Private", "Confidential"),
        .german: ("Normal", "Persönlich", "Privat", "Vertraulich"),
        .french: ("Normal", "Personnel", "Privé", "Confidentiel"),
        .spanish: ("Normal", "Personal", "Privado", "Confidencial"),
        .chinese: ("普通", "个人", "私人", "机密"),
        .japanese: ("標準", "個人用", "個人", "社外秘"),
    ]

    /// Outlook's "Show time as" numbers (1 free, 2 tentative, 3 busy, 4 out of office, 5 working
    /// elsewhere) and the availability each means; the English words are accepted as well.
    static let showTimeAs: [(String, Event.Availability)] = [
        ("1", .free), ("2", .tentative), ("3", .busy), ("4", .unavailable), ("5", .busy),
        ("free", .free), ("tentative", .tentative), ("busy", .busy), ("out of office", .unavailable),
    ]

    /// The Outlook and Google layouts' participant words: the (English) attendee column a
    /// participant goes in. Required, chair and unstated roles go in Required Attendees, optional in
    /// Optional Attendees; rooms, resources and non-participants in Meeting Resources (Outlook books
    /// resources as non-participants). Reading a column gives the first role or type listed for it.
    static func tableParticipants(formatID: String) -> ParticipantVocabulary {
        ParticipantVocabulary(
            formatID: formatID, roleField: "attendee column", statusField: "(none)", typeField: "attendee column",
            roles: [
                (.required, "Required Attendees"), (.optional, "Optional Attendees"), (.chair, "Required Attendees"),
                (.nonParticipant, "Meeting Resources"), (.unknown, "Required Attendees"),
            ],
            statuses: [],
            types: [(.resource, "Meeting Resources"), (.room, "Meeting Resources")])
    }

    /// The flat layout's participant words: EventKit's case names, as in the native JSON.
    static func flatParticipants(formatID: String) -> ParticipantVocabulary {
        ParticipantVocabulary(
            formatID: formatID, roleField: "role", statusField: "status", typeField: "type",
            roles: [
                (.unknown, "unknown"), (.required, "required"), (.optional, "optional"), (.chair, "chair"),
                (.nonParticipant, "nonParticipant"),
            ],
            statuses: [
                (.unknown, "unknown"), (.pending, "pending"), (.accepted, "accepted"), (.declined, "declined"),
                (.tentative, "tentative"), (.delegated, "delegated"), (.completed, "completed"), (.inProcess, "inProcess"),
            ],
            types: [(.unknown, "unknown"), (.person, "person"), (.room, "room"), (.resource, "resource"), (.group, "group")])
    }

    /// Item status words of the flat layout.
    static let statuses: [(CalendarItem.Status, String)] = [
        (.tentative, "tentative"), (.confirmed, "confirmed"), (.cancelled, "cancelled"), (.needsAction, "needsAction"),
        (.completed, "completed"), (.inProcess, "inProcess"), (.draft, "draft"), (.final, "final"),
    ]

    /// Privacy words of the flat layout.
    static let classifications: [(CalendarItem.Classification, String)] = [
        (.public, "public"), (.private, "private"), (.confidential, "confidential"),
    ]

    /// Availability words of the flat layout.
    static let availabilities: [(Event.Availability, String)] = [
        (.busy, "busy"), (.free, "free"), (.tentative, "tentative"), (.unavailable, "unavailable"),
    ]

    /// Alarm action words of the flat layout.
    static let alarmActions: [(Alarm.Action, String)] = [
        (.display, "display"), (.audio, "audio"), (.email, "email"), (.procedure, "procedure"),
    ]

    /// Properties that keep Outlook columns the model has no field for, so they survive a trip
    /// through ICS.
    static let billingProperty = "X-OUTLOOK-BILLING-INFORMATION"
    static let mileageProperty = "X-OUTLOOK-MILEAGE"
}
