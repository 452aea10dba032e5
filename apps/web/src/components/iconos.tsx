import type { ComponentProps } from 'react';
import {
  ArrowLeftOutlined as ArrowLeft,
  CalendarOutlined as Calendar,
  CaretRightOutlined as CaretRight,
  CheckCircleFilled as CheckCircleRelleno,
  CheckCircleOutlined as CheckCircle,
  ClockCircleOutlined as ClockCircle,
  CloseCircleFilled as CloseCircleRelleno,
  CloseOutlined as Close,
  ContainerOutlined as Container,
  CopyOutlined as Copy,
  DashboardOutlined as Dashboard,
  DeleteOutlined as Delete,
  DoubleLeftOutlined as DoubleLeft,
  DoubleRightOutlined as DoubleRight,
  DownOutlined as Down,
  EllipsisOutlined as Ellipsis,
  DownloadOutlined as Download,
  EditOutlined as Edit,
  ExclamationCircleFilled as ExclamationCircleRelleno,
  EyeOutlined as Eye,
  FileExcelOutlined as FileExcel,
  FileTextOutlined as FileText,
  FormOutlined as Form,
  GlobalOutlined as Global,
  HomeOutlined as Home,
  InboxOutlined as Inbox,
  InfoCircleFilled as InfoCircleRelleno,
  LaptopOutlined as Laptop,
  LeftOutlined as Left,
  LoadingOutlined as Loading,
  LockOutlined as Lock,
  LogoutOutlined as Logout,
  MenuOutlined as Menu,
  PauseOutlined as Pause,
  PhoneOutlined as Phone,
  PlusOutlined as Plus,
  RetweetOutlined as Retweet,
  RightOutlined as Right,
  RollbackOutlined as Rollback,
  SafetyCertificateOutlined as SafetyCertificate,
  SearchOutlined as Search,
  SendOutlined as Send,
  SettingOutlined as Setting,
  SoundOutlined as Sound,
  StopOutlined as Stop,
  TeamOutlined as Team,
  UnlockOutlined as Unlock,
  UploadOutlined as Upload,
  UserOutlined as User,
} from '@ant-design/icons';

// The app's icons, as decoration. Ant Design's icons name themselves to screen readers with their
// English file name (role="img", aria-label="delete"), so a button read 'delete Eliminar' and a
// menu entry 'home Inicio'. Every icon here sits beside a Spanish text or inside a control with
// its own Spanish aria-label, so it is hidden from assistive technology instead. Import icons
// from this module, never from '@ant-design/icons' (eslint enforces it).

type Icono = typeof Plus;

function decorativo(I: Icono) {
  const Decorativo = (p: ComponentProps<Icono>) => <I aria-hidden {...p} />;
  Decorativo.displayName = I.displayName;
  return Decorativo;
}

export const ArrowLeftOutlined = decorativo(ArrowLeft);
export const CalendarOutlined = decorativo(Calendar);
export const CaretRightOutlined = decorativo(CaretRight);
export const CheckCircleFilled = decorativo(CheckCircleRelleno);
export const CheckCircleOutlined = decorativo(CheckCircle);
export const ClockCircleOutlined = decorativo(ClockCircle);
export const CloseCircleFilled = decorativo(CloseCircleRelleno);
export const CloseOutlined = decorativo(Close);
export const ContainerOutlined = decorativo(Container);
export const CopyOutlined = decorativo(Copy);
export const DashboardOutlined = decorativo(Dashboard);
export const DeleteOutlined = decorativo(Delete);
export const DoubleLeftOutlined = decorativo(DoubleLeft);
export const DoubleRightOutlined = decorativo(DoubleRight);
export const DownOutlined = decorativo(Down);
export const EllipsisOutlined = decorativo(Ellipsis);
export const DownloadOutlined = decorativo(Download);
export const EditOutlined = decorativo(Edit);
export const ExclamationCircleFilled = decorativo(ExclamationCircleRelleno);
export const EyeOutlined = decorativo(Eye);
export const FileExcelOutlined = decorativo(FileExcel);
export const FileTextOutlined = decorativo(FileText);
export const FormOutlined = decorativo(Form);
export const GlobalOutlined = decorativo(Global);
export const HomeOutlined = decorativo(Home);
export const InboxOutlined = decorativo(Inbox);
export const InfoCircleFilled = decorativo(InfoCircleRelleno);
export const LaptopOutlined = decorativo(Laptop);
export const LeftOutlined = decorativo(Left);
export const LoadingOutlined = decorativo(Loading);
export const LockOutlined = decorativo(Lock);
export const LogoutOutlined = decorativo(Logout);
export const MenuOutlined = decorativo(Menu);
export const PauseOutlined = decorativo(Pause);
export const PhoneOutlined = decorativo(Phone);
export const PlusOutlined = decorativo(Plus);
export const RetweetOutlined = decorativo(Retweet);
export const RightOutlined = decorativo(Right);
export const RollbackOutlined = decorativo(Rollback);
export const SafetyCertificateOutlined = decorativo(SafetyCertificate);
export const SearchOutlined = decorativo(Search);
export const SendOutlined = decorativo(Send);
export const SettingOutlined = decorativo(Setting);
export const SoundOutlined = decorativo(Sound);
export const StopOutlined = decorativo(Stop);
export const TeamOutlined = decorativo(Team);
export const UnlockOutlined = decorativo(Unlock);
export const UploadOutlined = decorativo(Upload);
export const UserOutlined = decorativo(User);
